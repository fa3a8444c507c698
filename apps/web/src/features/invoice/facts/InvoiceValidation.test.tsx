import type { EInvoiceFinding, EInvoiceValidation } from '@portal/contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { InvoiceValidation } from './InvoiceValidation';

const finding = (overrides: Partial<EInvoiceFinding> = {}): EInvoiceFinding => ({
  rule: 'BR-CO-16',
  flag: 'fatal',
  element: 'BT-115',
  message:
    'Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) -Paid amount (BT-113) +Rounding amount (BT-114).',
  plain: 'The amount to pay is not the total with VAT minus what was paid in advance.',
  at: null,
  value: '999.99 (the parts make 336.90)',
  ...overrides,
});

const report = (overrides: Partial<EInvoiceValidation> = {}): EInvoiceValidation => ({
  status: 'invalid',
  rulesVersion: 'en16931-1.0',
  findings: [finding()],
  omittedFindings: 0,
  ...overrides,
});

describe('the EN 16931 badge of the facts panel', () => {
  it('says valid calmly, with no findings to open', () => {
    render(<InvoiceValidation validation={report({ status: 'valid', findings: [] })} />);
    expect(screen.getByText('EN 16931: valid')).toHaveClass('bg-success-subtle');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('counts the broken rules and shows each finding one click away, plain sentence first', async () => {
    render(
      <InvoiceValidation
        validation={report({
          findings: [
            finding(),
            finding({
              rule: 'BR-27',
              element: 'BT-146',
              plain: null,
              message: 'The Item net price (BT-146) shall NOT be negative.',
              at: 'line 2',
              value: '-5',
            }),
          ],
          omittedFindings: 3,
        })}
      />,
    );
    expect(screen.getByText('EN 16931: invalid, 5 findings')).toHaveClass('bg-danger-subtle');
    expect(screen.queryByText(/The amount to pay/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show findings' }));
    expect(screen.getByText(/The amount to pay is not the total with VAT/)).toBeInTheDocument();
    expect(screen.getByText('BR-CO-16 · BT-115 · found: 999.99 (the parts make 336.90)')).toBeInTheDocument();
    expect(screen.getByText(/The Item net price \(BT-146\) shall NOT be negative/)).toBeInTheDocument();
    expect(screen.getByText('BR-27 · BT-146 · line 2 · found: -5')).toBeInTheDocument();
    expect(screen.getByText('3 more findings are not listed.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hide findings' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('counts warnings when nothing is broken', () => {
    render(
      <InvoiceValidation
        validation={report({ status: 'warnings', findings: [finding({ rule: 'BR-51', flag: 'warning' })] })}
      />,
    );
    expect(screen.getByText('EN 16931: 1 warning')).toHaveClass('bg-warning-subtle');
  });
});
