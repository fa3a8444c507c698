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
  stepUpWithPasskey,
  type PortalCall,
} from './ceremony-client.ts';
export { addPagePasskey, addVirtualAuthenticator, type VirtualAuthenticator } from './virtual-authenticator.ts';
