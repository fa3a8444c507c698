import { useEffect, useRef, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

/** The bar's own "select all" box, for a list whose header cannot carry one (hidden behind cards on a phone). */
export interface SelectAllOnPage {
  id: string;
  label: string;
  /** How many rows of this page can be selected. */
  selectable: number;
  onSelectAll: (all: boolean) => void;
}

/**
 * What a list's ticked rows can have done to them: how many are ticked (said as it changes), the actions on
 * them, and, when given, a box that ticks the whole page (part-ticked while only some are).
 */
export function SelectionBar({
  selected,
  selectedText,
  selectAll,
  label,
  className,
  children,
}: {
  selected: number;
  selectedText: string;
  selectAll?: SelectAllOnPage;
  /** The bar's name as a group, when its buttons need one to be told from the page's others. */
  label?: string;
  className?: string;
  children: ReactNode;
}) {
  const box = useRef<HTMLInputElement>(null);
  const partly = selectAll !== undefined && selected > 0 && selected < selectAll.selectable;
  useEffect(() => {
    if (box.current) box.current.indeterminate = partly;
  }, [partly]);
  return (
    <div
      className={`d-flex flex-wrap align-items-center gap-2 selection-bar${className ? ` ${className}` : ''}`}
      role={label ? 'group' : undefined}
      aria-label={label}
    >
      {selectAll && (
        <Form.Check
          id={selectAll.id}
          ref={box}
          label={selectAll.label}
          checked={selectAll.selectable > 0 && selected === selectAll.selectable}
          disabled={selectAll.selectable === 0}
          onChange={(event) => selectAll.onSelectAll(event.target.checked)}
          className="mb-0"
        />
      )}
      <span className="small admin-note" aria-live="polite">
        {selectedText}
      </span>
      {children}
    </div>
  );
}
