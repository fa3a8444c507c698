import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from '@/lib/error-reporting';
import { FallbackScreen } from './FallbackScreen';

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
    return this.state.failed ? <FallbackScreen /> : this.props.children;
  }
}
