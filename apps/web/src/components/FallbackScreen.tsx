import type { ReactNode } from 'react';

/**
 * What a person sees when the portal itself failed: after an unexpected render error (the error goes to
 * error reporting), or when it could not start. `children` say what happened and what to do; by default, a
 * link that reloads the portal.
 */
export function FallbackScreen({ children }: { children?: ReactNode }) {
  return (
    <main className="container py-5 text-center" role="alert">
      <h1 className="h3">Oops! Something went wrong.</h1>
      {children ?? (
        <p className="text-body-secondary">
          <a href="/">Reload the portal</a>
        </p>
      )}
    </main>
  );
}
