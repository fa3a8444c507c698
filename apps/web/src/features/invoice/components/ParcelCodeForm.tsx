import { useState, type Ref } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from '@/lib/router';
import { invoicePathFor } from '@/lib/paths';
import { normalizeTypedParcelCode } from '../parcel-code';

/** A way on from a missing or wrong parcel code: type one and open its invoice. */
export function ParcelCodeForm({
  initialCode = '',
  inputRef,
}: {
  initialCode?: string;
  /** The field, for the screen to put focus in once its error modal has closed. */
  inputRef?: Ref<HTMLInputElement>;
}) {
  const navigate = useNavigate();
  const [code, setCode] = useState(initialCode);
  return (
    <Form
      className="parcel-code-form d-flex flex-column flex-sm-row align-items-sm-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const parcelCode = normalizeTypedParcelCode(code);
        if (parcelCode) void navigate(invoicePathFor(parcelCode));
      }}
    >
      <Form.Group controlId="parcel-code-input" className="flex-grow-1">
        <Form.Label className="mb-1">Parcel code</Form.Label>
        <Form.Control
          ref={inputRef}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
        />
      </Form.Group>
      <Button type="submit" variant="primary">
        Open invoice
      </Button>
    </Form>
  );
}
