import { usePageTitle } from '@/hooks/use-page-title';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { useQueryFailure } from '@/hooks/use-query-failure';
import { useAddressQuery } from '@/hooks/use-address-query';
import { useAdminCheck } from '../hooks/use-admin-check';
import { ADMIN_STEP_UP_TEXTS, NO_PERMISSION_MESSAGE } from '../messages';
import { AdminRefusal } from './AdminRefusal';
import { AuditLogPanel } from './AuditLogPanel';
import { StepUpGate } from '@/components/step-up/StepUpGate';
import { StepUpPrompt } from '@/components/step-up/StepUpPrompt';
import { UsersPanel } from './UsersPanel';

/** The tab's name in the address (`/admin?tab=audit`); the user list, the default, has none. */
const TAB_PARAM = 'tab';
const AUDIT_TAB = 'audit';

/**
 * The open tab, kept in the address: reload shows the same tab, Back returns to the one before. The user
 * list's own names in the address stay as they are.
 */
function useAdminTab() {
  const { query, change } = useAddressQuery();
  const tab = query.get(TAB_PARAM) === AUDIT_TAB ? AUDIT_TAB : 'users';
  const select = (key: string | null) =>
    change((current) => {
      const next = new URLSearchParams(current);
      if (key === AUDIT_TAB) next.set(TAB_PARAM, AUDIT_TAB);
      else next.delete(TAB_PARAM);
      return next;
    });
  return [tab, select] as const;
}

/**
 * The admin users screen: nothing but the title until the lookup confirms the signed-in account as admin,
 * then the passkey step (set one up, or use it) before the list.
 * A refusal is the spec's modal, then (its sentence said once, in the modal) the way on, in the page.
 */
export default function AdminUsersScreen() {
  usePageTitle('Users');
  const [tab, selectTab] = useAdminTab();
  const check = useAdminCheck();
  const failure = check.status === 'denied' ? check.failure : null;
  const denied = useQueryFailure(failure, () => NO_PERMISSION_MESSAGE);

  return (
    <main className="container py-3 admin-screen">
      <h1 className="h3 mb-2">Users</h1>
      {check.status === 'confirmed' && (
        <StepUpGate texts={ADMIN_STEP_UP_TEXTS}>
          {/* Mounted on first visit: the audit log is fetched only by admins who open it. */}
          <Tabs activeKey={tab} onSelect={selectTab} id="admin-tabs" className="mb-2" mountOnEnter>
            <Tab eventKey="users" title="User list">
              <UsersPanel />
            </Tab>
            <Tab eventKey={AUDIT_TAB} title="Audit log">
              <AuditLogPanel />
            </Tab>
          </Tabs>
          <StepUpPrompt />
        </StepUpGate>
      )}
      {failure && denied.message === null && <AdminRefusal failure={failure} />}
      <ErrorModal message={denied.message} onClose={denied.dismiss} />
      <LoadingOverlay show={check.status === 'checking'} />
    </main>
  );
}
