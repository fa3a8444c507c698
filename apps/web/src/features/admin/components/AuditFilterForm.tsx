import type { AuditEventGroup } from '@portal/contract';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { AuditFilter } from '../api/get-audit-page';
import { AUDIT_EVENT_CHOICES } from '../audit/describe-entry';

/**
 * Narrows the audit log to a group of events, one parcel code and/or one user; empty fields show everything.
 * The events apply as soon as they are chosen (like the user list's controls); the typed fields on Filter.
 */
export function AuditFilterForm({
  events,
  onFilter,
}: {
  events: AuditEventGroup;
  onFilter: (filter: AuditFilter & { events: AuditEventGroup }) => void;
}) {
  const [parcelCode, setParcelCode] = useState('');
  const [user, setUser] = useState('');

  const filterWith = (chosen: AuditEventGroup) =>
    onFilter({
      events: chosen,
      ...(parcelCode.trim() ? { parcelCode: parcelCode.trim() } : {}),
      ...(user.trim() ? { user: user.trim().toLowerCase() } : {}),
    });

  function submit(event: FormEvent) {
    event.preventDefault();
    filterWith(events);
  }

  return (
    <Form className="audit-filter" onSubmit={submit} aria-label="Filter the audit log">
      <Form.Group controlId="audit-filter-events">
        <Form.Label className="small mb-1">Events</Form.Label>
        <Form.Select size="sm" value={events} onChange={(event) => filterWith(event.target.value as AuditEventGroup)}>
          {AUDIT_EVENT_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
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
