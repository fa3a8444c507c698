export {
  createSoftwareAuthenticator,
  toVirtualCredential,
  type CeremonyOverrides,
  type SoftwareAuthenticator,
  type SoftwareCredential,
} from './software-authenticator.ts';
