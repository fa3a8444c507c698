import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from '@/lib/error-reporting';

/** On an unexpected render error: the spec's fallback screen, and the error goes to error reporting. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    reportError(error, info.componentStack ?? undefined);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="container py-5 text-center" role="alert">
        <h1 className="h3">Oops! Something went wrong.</h1>
        <p className="text-body-secondary">
          <a href="/">Reload the portal</a>
        </p>
      </main>
    );
  }
}
