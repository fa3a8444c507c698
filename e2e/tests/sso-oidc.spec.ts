import { ssoFlows } from '../sso.ts';

// As npm start's demo: an OIDC provider, which the Auth emulator plays with a page of its own.
ssoFlows('OIDC', 'oidc.example-company');
