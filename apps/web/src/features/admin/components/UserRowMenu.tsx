import type { AllowedUser } from '@portal/contract';
import { useRef } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { financeChangeButton, roleChangeButton, rowMenuLabel } from '../messages';
import type { UserActions } from './UserRow';

/**
 * The row's rarer actions behind one "⋯" button, so a page shows one quiet control per row instead of three.
 * Each entry is one line here: add an action by adding an item.
 */
export function UserRowMenu({ user, own, actions }: { user: AllowedUser; own: boolean; actions: UserActions }) {
  const toggle = useRef<HTMLButtonElement>(null);
  const { email } = user;
  return (
    <Dropdown align="end" className="row-menu">
      <Dropdown.Toggle
        ref={toggle}
        variant="outline-secondary"
        size="sm"
        className="row-menu-toggle"
        aria-label={rowMenuLabel(email)}
      >
        <span aria-hidden="true">⋯</span>
      </Dropdown.Toggle>
      {/* Fixed, so a menu on the last rows is not cut off by the end of the card. */}
      <Dropdown.Menu popperConfig={{ strategy: 'fixed' }}>
        <Dropdown.Item as="button" onClick={() => actions.onSetAdmin(email, !user.admin, toggle.current!)}>
          {roleChangeButton(!user.admin)}
        </Dropdown.Item>
        <Dropdown.Item as="button" onClick={() => actions.onSetFinance(email, !user.finance, toggle.current!)}>
          {financeChangeButton(!user.finance)}
        </Dropdown.Item>
        <Dropdown.Item as="button" onClick={() => actions.onEndSessions(email, toggle.current!)}>
          End sessions
        </Dropdown.Item>
        {/* Your own passkeys are not reset here: that would lock you out of this page mid-visit. */}
        {user.admin && !own && (
          <Dropdown.Item as="button" onClick={() => actions.onResetPasskeys(email, toggle.current!)}>
            Reset passkeys
          </Dropdown.Item>
        )}
        {!user.activated && (
          <Dropdown.Item as="button" onClick={() => actions.onResend(email)}>
            Resend invitation
          </Dropdown.Item>
        )}
      </Dropdown.Menu>
    </Dropdown>
  );
}
