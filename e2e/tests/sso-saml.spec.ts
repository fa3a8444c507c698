import { ssoFlows } from '../sso.ts';

// The Auth emulator plays a SAML provider too: its page asks for an address, sent as the assertion's NameID.
ssoFlows('SAML', 'saml.example-company');
