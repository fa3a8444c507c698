import { useEffect, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { selectedCount } from '../messages';

/**
 * "Select all on this page", how many are selected, and the one Delete for all of them. It sits above the
 * table rather than in its header, so it stays on a phone where the header is hidden behind the cards.
 */
export function SelectionBar({
  selectable,
  selected,
  onSelectAll,
  onDelete,
}: {
  /** How many rows of this page can be selected (the admin's own cannot). */
  selectable: number;
  selected: number;
  onSelectAll: (all: boolean) => void;
  onDelete: () => void;
}) {
  const selectAll = useRef<HTMLInputElement>(null);
  const partly = selected > 0 && selected < selectable;
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = partly;
  }, [partly]);
  return (
    <div className="card-header bg-body d-flex flex-wrap align-items-center gap-2 gap-sm-3 selection-bar">
      <Form.Check
        id="admin-users-select-all"
        ref={selectAll}
        label="Select all on this page"
        checked={selectable > 0 && selected === selectable}
        disabled={selectable === 0}
        onChange={(event) => onSelectAll(event.target.checked)}
        className="mb-0"
      />
      <span className="small admin-note" aria-live="polite">
        {selectedCount(selected)}
      </span>
      <Button variant="outline-danger" size="sm" className="ms-auto" disabled={selected === 0} onClick={onDelete}>
        Delete selected
      </Button>
    </div>
  );
}
