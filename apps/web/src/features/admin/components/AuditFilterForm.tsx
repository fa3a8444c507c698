import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { AuditFilter } from '../api/get-audit-page';

/** Narrows the audit log to one parcel code and/or one user; empty fields show everything. */
export function AuditFilterForm({ onFilter }: { onFilter: (filter: AuditFilter) => void }) {
  const [parcelCode, setParcelCode] = useState('');
  const [user, setUser] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    onFilter({
      ...(parcelCode.trim() ? { parcelCode: parcelCode.trim() } : {}),
      ...(user.trim() ? { user: user.trim().toLowerCase() } : {}),
    });
  }

  return (
    <Form className="d-flex flex-wrap gap-2 align-items-end mb-3" onSubmit={submit} aria-label="Filter the audit log">
      <Form.Group controlId="audit-filter-parcel-code">
        <Form.Label className="small mb-1">Parcel code</Form.Label>
        <Form.Control size="sm" value={parcelCode} onChange={(event) => setParcelCode(event.target.value)} />
      </Form.Group>
      <Form.Group controlId="audit-filter-user">
        <Form.Label className="small mb-1">User e-mail</Form.Label>
        <Form.Control size="sm" type="email" value={user} onChange={(event) => setUser(event.target.value)} />
      </Form.Group>
      <Button type="submit" size="sm" variant="primary">
        Filter
      </Button>
    </Form>
  );
}
