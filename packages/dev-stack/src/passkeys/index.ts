export {
  createSoftwareAuthenticator,
  toVirtualCredential,
  type CeremonyOverrides,
  type ExportedCredential,
  type SoftwareAuthenticator,
  type SoftwareCredential,
} from './software-authenticator.ts';
export {
  enrollOrStepUp,
  enrollPasskey,
  httpPortalCall,
  httpPortalSession,
  STEP_UP_COOKIE,
  STEP_UP_HEADER,
  stepUpSecretFrom,
  stepUpWithPasskey,
  type PortalCall,
} from './ceremony-client.ts';
export { addPagePasskey, addVirtualAuthenticator, type VirtualAuthenticator } from './virtual-authenticator.ts';
