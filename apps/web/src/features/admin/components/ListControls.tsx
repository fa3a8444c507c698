import { USER_STATUSES, type UserSort, type UserStatus } from '@portal/contract';
import Form from 'react-bootstrap/Form';
import { PAGE_SIZES } from '../api/paging';
import type { UsersListParams } from '../hooks/use-users-list-params';

const SORT_LABELS: Record<UserSort, string> = {
  email: 'Email A–Z',
  '-email': 'Email Z–A',
  '-added': 'Newest first',
  added: 'Oldest first',
};
const STATUS_LABELS: Record<UserStatus, string> = { admin: 'Admins', activated: 'Activated', invited: 'Invited' };

/** Status filter, order and page size of the user list. */
export function ListControls({
  params,
  onChange,
}: {
  params: UsersListParams;
  onChange: (change: Partial<UsersListParams>) => void;
}) {
  return (
    <div className="list-controls">
      <Form.Group controlId="users-status">
        <Form.Label className="small mb-1">Status</Form.Label>
        <Form.Select
          size="sm"
          value={params.status ?? ''}
          onChange={(event) => onChange({ status: (event.target.value || undefined) as UserStatus | undefined })}
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
          value={params.sort}
          onChange={(event) => onChange({ sort: event.target.value as UserSort })}
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
          value={params.pageSize}
          onChange={(event) => onChange({ pageSize: Number(event.target.value) })}
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
