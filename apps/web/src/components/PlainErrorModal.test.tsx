import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { PlainErrorModal } from './PlainErrorModal';

function Page({ onExited }: { onExited: () => void }) {
  const [message, setMessage] = useState<string | null>(null);
  return (
    <>
      <button type="button" onClick={() => setMessage('Application error. Please contact the UK IT team.')}>
        Load
      </button>
      <PlainErrorModal message={message} reference="req-1" onClose={() => setMessage(null)} onExited={onExited} />
    </>
  );
}

describe('the plain error modal (when the Bootstrap one cannot be downloaded)', () => {
  it('shows the spec’s modal, takes the focus, closes on Escape and gives the focus back', async () => {
    const user = userEvent.setup();
    const onExited = vi.fn();
    render(<Page onExited={onExited} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load' }));

    const dialog = screen.getByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText('Application error. Please contact the UK IT team.')).toBeInTheDocument();
    expect(within(dialog).getByTestId('error-reference')).toHaveTextContent('Reference: req-1');
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Load' })).toHaveFocus();
    expect(onExited).toHaveBeenCalledTimes(1);
  });
});
