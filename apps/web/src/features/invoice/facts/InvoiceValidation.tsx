import type { EInvoiceValidation } from '@portal/contract';
import { useId, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';

interface InvoiceValidationProps {
  validation: EInvoiceValidation;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The badge's words and its calm colour: a finding is something to look at, not an alarm. */
function summaryOf(validation: EInvoiceValidation): { text: string; className: string } {
  const total = validation.findings.length + validation.omittedFindings;
  if (validation.status === 'valid')
    return { text: 'EN 16931: valid', className: 'text-success-emphasis bg-success-subtle' };
  if (validation.status === 'warnings')
    return {
      text: `EN 16931: ${plural(total, 'warning', 'warnings')}`,
      className: 'text-warning-emphasis bg-warning-subtle',
    };
  return {
    text: `EN 16931: invalid, ${plural(total, 'finding', 'findings')}`,
    className: 'text-danger-emphasis bg-danger-subtle',
  };
}

/**
 * The EN 16931 check made when the version arrived: a badge beside the facts, the findings one click away,
 * each in a sentence for whoever books the invoice when there is one, with the standard's rule and wording.
 */
export function InvoiceValidation({ validation }: InvoiceValidationProps) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const summary = summaryOf(validation);
  const hasFindings = validation.findings.length > 0;
  return (
    <div className="invoice-validation mb-2">
      {/* Side by side while they fit; the toggle under the badge, at its left edge, when they do not. */}
      <div className="d-flex flex-wrap align-items-center column-gap-2">
        <Badge bg="" className={`${summary.className} fw-normal`}>
          {summary.text}
        </Badge>
        {hasFindings && (
          <Button
            variant="link"
            size="sm"
            className="px-0"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? 'Hide findings' : 'Show findings'}
          </Button>
        )}
      </div>
      {hasFindings && open && (
        <ul id={listId} className="list-unstyled small mt-2 mb-0">
          {validation.findings.map((finding, index) => (
            <li key={`${finding.rule}-${index}`} className="mb-2">
              <span className={finding.flag === 'fatal' ? 'text-danger-emphasis' : 'text-warning-emphasis'}>
                {finding.flag === 'fatal' ? 'Error' : 'Warning'}
              </span>{' '}
              {finding.plain ?? finding.message}
              <div className="text-body-secondary">
                {finding.rule} · {finding.element}
                {finding.at ? ` · ${finding.at}` : ''}
                {finding.value !== null ? ` · found: ${finding.value}` : ''}
              </div>
              {finding.plain && <div className="text-body-secondary fst-italic">{finding.message}</div>}
            </li>
          ))}
          {validation.omittedFindings > 0 && (
            <li className="text-body-secondary">
              {plural(validation.omittedFindings, 'more finding is', 'more findings are')} not listed.
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
