import type { ReactNode } from 'react';

/**
 * Bootstrap's alert as plain markup, what react-bootstrap's Alert renders when it cannot be dismissed. That
 * one brings its fade transition's code, which the bundle shares with the modals: on the invoice screen it
 * put the modal code on the way to the first paint of a signed-in link.
 */
export function Alert({
  variant,
  className,
  children,
  ...rest
}: {
  variant: 'danger' | 'warning' | 'info' | 'success';
  className?: string;
  children: ReactNode;
  'aria-labelledby'?: string;
}) {
  return (
    <div role="alert" className={`alert alert-${variant}${className ? ` ${className}` : ''}`} {...rest}>
      {children}
    </div>
  );
}
