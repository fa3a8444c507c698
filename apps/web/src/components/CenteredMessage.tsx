import type { ReactNode } from 'react';

export function CenteredMessage({ children }: { children: ReactNode }) {
  return (
    <div className="centered-message" role="status">
      {children}
    </div>
  );
}
