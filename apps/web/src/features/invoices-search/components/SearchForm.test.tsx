import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SearchForm } from './SearchForm';

describe('the search form of the Invoices page', () => {
  it('shows the filter of the address in every labelled field, lists included', () => {
    render(
      <SearchForm
        filter={{
          seller: 'nord',
          issuedFrom: '2026-01-01',
          issuedTo: '2026-01-31',
          amountMin: '5',
          amountMax: '500.50',
          format: 'ubl',
          validation: 'invalid',
          bankDetailsChanged: 'true',
        }}
        onSearch={() => {}}
      />,
    );
    expect(screen.getByLabelText(/^Seller/)).toHaveValue('nord');
    expect(screen.getByLabelText('Issued from')).toHaveValue('2026-01-01');
    expect(screen.getByLabelText('Issued to')).toHaveValue('2026-01-31');
    expect(screen.getByLabelText('Smallest amount')).toHaveValue('5');
    expect(screen.getByLabelText('Largest amount')).toHaveValue('500.50');
    expect(screen.getByRole('group', { name: 'Issued' })).toContainElement(screen.getByLabelText('Issued to'));
    expect(screen.getByRole('group', { name: 'Amount (gross)' })).toContainElement(
      screen.getByLabelText('Smallest amount'),
    );
    expect(screen.getByLabelText('Format')).toHaveDisplayValue('XML (UBL)');
    expect(screen.getByLabelText('Validation')).toHaveDisplayValue('Invalid');
    expect(screen.getByLabelText('Bank details changed')).toBeChecked();
  });

  it('offers Any and every value in each list, and searches with what was chosen', async () => {
    const onSearch = vi.fn();
    const user = userEvent.setup();
    render(<SearchForm filter={{}} onSearch={onSearch} />);
    const format = screen.getByLabelText('Format');
    expect([...(format as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'Any',
      'PDF',
      'Factur-X / ZUGFeRD',
      'XML (CII)',
      'XML (UBL)',
    ]);
    expect(
      [...(screen.getByLabelText('Validation') as HTMLSelectElement).options].map((option) => option.text),
    ).toEqual(['Any', 'Valid', 'Valid with warnings', 'Invalid']);
    await user.selectOptions(format, 'Factur-X / ZUGFeRD');
    await user.selectOptions(screen.getByLabelText('Validation'), 'Valid with warnings');
    await user.type(screen.getByLabelText('Smallest amount'), '10');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenLastCalledWith({ format: 'facturx', validation: 'warnings', amountMin: '10' });
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onSearch).toHaveBeenLastCalledWith({});
    expect(screen.getByLabelText('Format')).toHaveValue('');
  });
});
