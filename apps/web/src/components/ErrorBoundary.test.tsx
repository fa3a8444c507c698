import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary';

function Broken(): never {
  throw new Error('render crash');
}

describe('ErrorBoundary', () => {
  it('shows the fallback screen on a render error', () => {
    // React itself logs the caught error; that is expected here.
    vi.mocked(console.error).mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Oops! Something went wrong.');
  });
});
