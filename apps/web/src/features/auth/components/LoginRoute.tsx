import { useEffect } from 'react';
import { Navigate, useLocation } from '@/lib/router';
import { CenteredMessage } from '@/components/CenteredMessage';
import { useAuth } from '@/lib/auth';
import { readBeforeLogin, saveBeforeLogin } from '@/lib/storage';
import { postLoginTarget, readFromState } from '../login-redirect';
import { LoginScreen } from './LoginScreen';

/** /login: the login screen while signed out; once signed in, on to where the user was going. */
export function LoginRoute() {
  const { state, settleSignOut } = useAuth();
  const location = useLocation();
  const from = readFromState(location.state);

  useEffect(() => {
    if (from) saveBeforeLogin(from);
  }, [from?.pathname, from?.search]); // eslint-disable-line react-hooks/exhaustive-deps

  const justSignedOut = state.status === 'signed-out' && state.byUser;
  useEffect(() => {
    if (justSignedOut) settleSignOut();
  }, [justSignedOut, settleSignOut]);

  if (state.status === 'loading') return <CenteredMessage>Loading...</CenteredMessage>;
  if (state.status === 'signed-in') return <Navigate to={postLoginTarget(from, readBeforeLogin())} replace />;
  return <LoginScreen />;
}
