import { useNavigate } from '@/lib/router';
import { SupportLinks } from '@/components/SupportLinks';
import { useAuth } from '@/lib/auth';
import { paths } from '@/lib/paths';

export const notAllowedHeading = (email: string) => `You are signed in as ${email}.`;
export const NOT_ALLOWED_FALLBACK = 'This account is not allowed to use this portal.';
export const NOT_ALLOWED_HINT =
  'Sign out and sign in with the account your invitation was sent to, or ask the website administrator to add this one.';

/**
 * What an account that is signed in but not allowed (not on the list, or its session ended) can do: nothing
 * here but sign out and in again as someone else. `reason` is the server's own sentence for the refusal.
 */
export function AccountNotAllowed({ reason }: { reason: string | undefined }) {
  const { state, signOut } = useAuth();
  const navigate = useNavigate();
  const onSignOut = async () => {
    await signOut();
    navigate(paths.login, { replace: true });
  };
  return (
    <div className="account-refusal">
      <div className="alert alert-warning">
        {state.status === 'signed-in' && (
          <p className="mb-1 fw-semibold text-break">{notAllowedHeading(state.user.email)}</p>
        )}
        <p className="mb-0">{reason ?? NOT_ALLOWED_FALLBACK}</p>
      </div>
      <p>{NOT_ALLOWED_HINT}</p>
      <button type="button" className="btn btn-primary" onClick={() => void onSignOut()}>
        Sign Out
      </button>
      <SupportLinks className="mt-3 mb-0" />
    </div>
  );
}
