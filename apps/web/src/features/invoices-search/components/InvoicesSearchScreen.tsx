import { useAccount } from '@/lib/account-query';
import { useAuth } from '@/lib/auth';
import { usePageTitle } from '@/hooks/use-page-title';
import { Alert } from '@/components/Alert';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { StepUpGate } from '@/components/step-up/StepUpGate';
import { StepUpPrompt } from '@/components/step-up/StepUpPrompt';
import { FINANCE_STEP_UP_TEXTS, NO_FINANCE_MESSAGE } from '../messages';
import { InvoicesPanel } from './InvoicesPanel';
import pageStyles from '../invoices-page.css?inline';

/**
 * The finance role's Invoices page: nothing but the title until the account lookup says finance (the server
 * refuses the calls all the same), then the passkey (set up on the first visit with the enrollment code,
 * used on every visit after, asked for again over a refused call), then the search, the results and the ZIP.
 */
export default function InvoicesSearchScreen() {
  usePageTitle('Invoices');
  const { state } = useAuth();
  const email = state.status === 'signed-in' ? state.user.email : '';
  const account = useAccount(email, { enabled: email !== '' });
  return (
    <main className="container py-3 py-md-4 invoices-screen">
      {/*
        The page's own styles travel inside its code, hoisted into the head by React: a stylesheet file of its
        own would add its name to the login page's list of the chunks' files.
      */}
      <style href="invoices-page" precedence="invoices-page">
        {pageStyles}
      </style>
      <h1 className="h3 mb-3">Invoices</h1>
      {account.data?.finance === true && (
        <StepUpGate texts={FINANCE_STEP_UP_TEXTS}>
          <InvoicesPanel />
          <StepUpPrompt />
        </StepUpGate>
      )}
      {account.data && account.data.finance !== true && <Alert variant="warning">{NO_FINANCE_MESSAGE}</Alert>}
      {account.isError && <Alert variant="danger">{NO_FINANCE_MESSAGE}</Alert>}
      <LoadingOverlay show={account.isPending && email !== ''} />
    </main>
  );
}
