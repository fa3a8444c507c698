import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCbor, type CborValue } from './cbor.ts';

/**
 * A passkey authenticator in Node: what a phone, a laptop's fingerprint reader or a security key does in
 * the WebAuthn ceremonies, with an ES256 (P-256) key per credential, "none" attestation and user
 * verification. API tests, e2e set-up and benchmarks use it to enroll and step up through the portal's
 * real endpoints; Chromium can be handed the same credential (`toVirtualCredential`) so a browser and a
 * script share one passkey.
 */

/** The parts of PublicKeyCredentialCreationOptionsJSON this authenticator reads. */
export interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string };
}

/** The parts of PublicKeyCredentialRequestOptionsJSON this authenticator reads. */
export interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export interface SoftwareCredential {
  id: Buffer;
  rpId: string;
  userHandle: Buffer;
  privateKey: KeyObject;
  signCount: number;
}

export interface CeremonyOverrides {
  /** The page's origin as the browser would report it; defaults to the authenticator's. */
  origin?: string;
  /** False to answer as an authenticator that did not verify the person (no PIN, no biometric). */
  userVerified?: boolean;
  /** register(): present this credential again instead of making one, as a faulty authenticator might. */
  reuse?: SoftwareCredential;
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;
const COSE_ES256 = -7;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function counterBytes(count: number) {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(count);
  return bytes;
}

/** The credential's public key as a COSE_Key map: EC2, ES256, P-256, x, y. */
function coseKeyOf(privateKey: KeyObject) {
  const jwk = privateKey.export({ format: 'jwk' });
  return encodeCbor(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, COSE_ES256],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]),
  );
}

/** A credential as JSON, to hand from one process to another (e2e set-up to its test workers). */
export interface ExportedCredential {
  id: string;
  rpId: string;
  userHandle: string;
  privateKey: string;
}

/** Tenths of a second since 2025: a count that only goes up, whichever process signs next. */
const clockCount = () => Math.floor((Date.now() - Date.UTC(2025, 0, 1)) / 100);

export function createSoftwareAuthenticator(options: {
  origin: string;
  /**
   * Sign counts from the clock instead of from 1: several processes can then sign with one credential
   * (e2e set-up and each test worker) and the portal still sees the count go up, as it insists.
   */
  signCountFromClock?: boolean;
}) {
  const credentials: SoftwareCredential[] = [];

  const clientData = (type: 'webauthn.create' | 'webauthn.get', challenge: string, overrides: CeremonyOverrides) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: overrides.origin ?? options.origin, crossOrigin: false }));

  const flags = (overrides: CeremonyOverrides) =>
    FLAG_USER_PRESENT | (overrides.userVerified === false ? 0 : FLAG_USER_VERIFIED);

  const rpIdOf = (explicit: string | undefined) => explicit ?? new URL(options.origin).hostname;

  return {
    credentials,

    export(credential: SoftwareCredential): ExportedCredential {
      return {
        id: credential.id.toString('base64url'),
        rpId: credential.rpId,
        userHandle: credential.userHandle.toString('base64url'),
        privateKey: credential.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
      };
    },

    /** Holds a credential another authenticator exported. */
    import(exported: ExportedCredential) {
      credentials.push({
        id: Buffer.from(exported.id, 'base64url'),
        rpId: exported.rpId,
        userHandle: Buffer.from(exported.userHandle, 'base64url'),
        privateKey: createPrivateKey({ key: Buffer.from(exported.privateKey, 'base64'), format: 'der', type: 'pkcs8' }),
        signCount: 0,
      });
    },

    /** navigator.credentials.create(): a new key pair for this relying party and user. */
    register(creation: CreationOptions, overrides: CeremonyOverrides = {}) {
      const rpId = rpIdOf(creation.rp.id);
      const credential: SoftwareCredential = overrides.reuse ?? {
        id: randomBytes(32),
        rpId,
        userHandle: Buffer.from(creation.user.id, 'base64url'),
        privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
        signCount: 0,
      };
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credential.id.length);
      const authenticatorData = Buffer.concat([
        sha256(rpId),
        Uint8Array.of(flags(overrides) | FLAG_ATTESTED_CREDENTIAL),
        counterBytes(credential.signCount),
        Buffer.alloc(16), // AAGUID: all zeros, as a software or privacy-preserving authenticator sends
        idLength,
        credential.id,
        coseKeyOf(credential.privateKey),
      ]);
      const attestationObject = encodeCbor(
        new Map<string, CborValue>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, CborValue>()],
          ['authData', authenticatorData],
        ]),
      );
      if (!overrides.reuse) credentials.push(credential);
      return {
        id: base64url(credential.id),
        rawId: base64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: base64url(clientData('webauthn.create', creation.challenge, overrides)),
          attestationObject: base64url(attestationObject),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },

    /** navigator.credentials.get(): an assertion by the first allowed credential this authenticator holds. */
    authenticate(request: RequestOptions, overrides: CeremonyOverrides = {}) {
      const rpId = rpIdOf(request.rpId);
      const allowed = new Set(request.allowCredentials?.map((entry) => entry.id));
      const credential = credentials.find(
        (candidate) => candidate.rpId === rpId && (allowed.size === 0 || allowed.has(base64url(candidate.id))),
      );
      if (!credential) throw new Error(`the software authenticator holds no passkey for ${rpId} that is allowed`);
      credential.signCount = Math.max(credential.signCount + 1, options.signCountFromClock ? clockCount() : 0);
      const authenticatorData = Buffer.concat([
        sha256(rpId),
        Uint8Array.of(flags(overrides)),
        counterBytes(credential.signCount),
      ]);
      const clientDataJSON = clientData('webauthn.get', request.challenge, overrides);
      // ECDSA over authenticatorData || SHA-256(clientDataJSON); Node writes it DER-encoded, as WebAuthn wants.
      const signature = sign(
        'sha256',
        Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
        credential.privateKey,
      );
      return {
        id: base64url(credential.id),
        rawId: base64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: base64url(clientDataJSON),
          authenticatorData: base64url(authenticatorData),
          signature: base64url(signature),
          userHandle: base64url(credential.userHandle),
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },
  };
}

export type SoftwareAuthenticator = ReturnType<typeof createSoftwareAuthenticator>;

/**
 * The credential in the shape of the DevTools protocol's WebAuthn.addCredential (binary fields in plain
 * base64, the private key as PKCS#8), so a Chromium virtual authenticator can sign with it too. `signCount`
 * must be above any count the portal has seen for it, or the portal takes the passkey for a clone.
 */
export function toVirtualCredential(credential: SoftwareCredential, signCount = credential.signCount) {
  return {
    credentialId: credential.id.toString('base64'),
    isResidentCredential: true,
    rpId: credential.rpId,
    privateKey: credential.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    userHandle: credential.userHandle.toString('base64'),
    signCount,
  };
}
