import { USER_STATUSES, type UserSort, type UserStatus } from '@portal/contract';
import Form from 'react-bootstrap/Form';
import { PAGE_SIZES } from '../api/paging';

export interface ListView {
  sort: UserSort;
  status: UserStatus | undefined;
  pageSize: number;
}

const SORT_LABELS: Record<UserSort, string> = {
  email: 'Email A–Z',
  '-email': 'Email Z–A',
  '-added': 'Newest first',
  added: 'Oldest first',
};
const STATUS_LABELS: Record<UserStatus, string> = { admin: 'Admins', activated: 'Activated', invited: 'Invited' };

/** Status filter, order and page size of the user list. */
export function ListControls({ view, onChange }: { view: ListView; onChange: (view: ListView) => void }) {
  return (
    <div className="d-flex flex-wrap gap-2 mb-3 list-controls">
      <Form.Group controlId="users-status">
        <Form.Label className="small mb-1">Status</Form.Label>
        <Form.Select
          size="sm"
          value={view.status ?? ''}
          onChange={(event) =>
            onChange({ ...view, status: (event.target.value || undefined) as UserStatus | undefined })
          }
        >
          <option value="">Everyone</option>
          {USER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="users-sort">
        <Form.Label className="small mb-1">Order</Form.Label>
        <Form.Select
          size="sm"
          value={view.sort}
          onChange={(event) => onChange({ ...view, sort: event.target.value as UserSort })}
        >
          {(Object.keys(SORT_LABELS) as UserSort[]).map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="users-page-size">
        <Form.Label className="small mb-1">Per page</Form.Label>
        <Form.Select
          size="sm"
          value={view.pageSize}
          onChange={(event) => onChange({ ...view, pageSize: Number(event.target.value) })}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
    </div>
  );
}
