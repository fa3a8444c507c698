/**
 * One filter of the search as a labelled list: "Any" (no filter) first, then each value by its name. The
 * select's id is `search-<field>`, the label's target, as every field of the form.
 */
export function LabelledSelect({
  field,
  label,
  values,
  names,
  value,
  onChange,
}: {
  field: string;
  label: string;
  values: readonly string[];
  /** What each value is called on screen. */
  names: Readonly<Record<string, string>>;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="search-field">
      <label className="form-label" htmlFor={`search-${field}`}>
        {label}
      </label>
      <select
        id={`search-${field}`}
        className="form-select form-select-sm"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">Any</option>
        {values.map((each) => (
          <option key={each} value={each}>
            {names[each]}
          </option>
        ))}
      </select>
    </div>
  );
}
