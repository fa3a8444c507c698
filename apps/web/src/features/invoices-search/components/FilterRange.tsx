import type { InputHTMLAttributes } from 'react';

export interface RangeEnd {
  field: string;
  /** The end's own name, read by assistive technology only: the legend names the pair. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** How this end is typed in (a date, a decimal, a placeholder). */
  input: InputHTMLAttributes<HTMLInputElement>;
}

/** A filter with two ends, both included ("Issued", "Amount (gross)"): one legend, a field for each end. */
export function FilterRange({
  legend,
  className,
  ends,
}: {
  legend: string;
  className?: string;
  ends: [RangeEnd, RangeEnd];
}) {
  const [from, to] = ends.map(({ field, label, value, onChange, input }) => (
    <>
      <label className="visually-hidden" htmlFor={`search-${field}`}>
        {label}
      </label>
      <input
        {...input}
        id={`search-${field}`}
        className="form-control form-control-sm"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </>
  ));
  return (
    <fieldset className={['search-field search-range', className].filter(Boolean).join(' ')}>
      <legend className="form-label">{legend}</legend>
      {from}
      <span aria-hidden="true">–</span>
      {to}
    </fieldset>
  );
}
