import { BlobTooLargeError, type BlobStore } from '../blob-store/blob-store.ts';
import { IdentityProviderUnavailableError, type IdentityProvider } from '../identity/identity-provider.ts';
import type { Mailer } from '../notifications/mailer.ts';
import type { BlobStoreOperation, IdentityOperation, Metrics } from './metrics.ts';

const secondsSince = (startMs: number) => (performance.now() - startMs) / 1000;

/**
 * The identity provider, each call timed and its failures counted by operation. A failure is the provider's
 * (unreachable, too slow, an internal error): a refused token or an address held by a foreign account is
 * the provider answering, and counts as an answer.
 */
export function measuredIdentity<T extends IdentityProvider>(identity: T, metrics: Metrics): T {
  async function measure<R>(operation: IdentityOperation, call: () => Promise<R>): Promise<R> {
    const started = performance.now();
    try {
      return await call();
    } catch (error) {
      if (error instanceof IdentityProviderUnavailableError) metrics.identityErrors.inc({ operation });
      throw error;
    } finally {
      metrics.identityDuration.observe({ operation }, secondsSince(started));
    }
  }
  return Object.assign(Object.create(identity) as T, {
    verifyIdToken: (token: string) => measure('verify_id_token', () => identity.verifyIdToken(token)),
    createUser: (email: string) => measure('create_user', () => identity.createUser(email)),
    findUserByEmail: (email: string) => measure('find_user_by_email', () => identity.findUserByEmail(email)),
    deleteUser: (uid: string) => measure('delete_user', () => identity.deleteUser(uid)),
    revokeSessions: (uid: string) => measure('revoke_sessions', () => identity.revokeSessions(uid)),
    hasPassword: (uid: string) => measure('has_password', () => identity.hasPassword(uid)),
    markEmailVerified: (uid: string) => measure('mark_email_verified', () => identity.markEmailVerified(uid)),
  } satisfies IdentityProvider);
}

/**
 * The invoice store, each call timed and its failures counted by store and operation, and the bucket's
 * throttling answers counted. An absent blob is an answer; a body refused for its size or its first bytes is
 * the caller's refusal, not the store failing.
 */
export function measuredBlobStore(store: BlobStore, metrics: Metrics): BlobStore {
  const kind = store.kind;
  metrics.storeInUse(kind);
  store.onThrottled?.(() => metrics.blobStoreThrottled.inc({ store: kind }));

  async function measure<R>(
    operation: BlobStoreOperation,
    call: () => Promise<R>,
    callersFault: (error: unknown) => boolean = () => false,
  ): Promise<R> {
    const started = performance.now();
    try {
      return await call();
    } catch (error) {
      if (!callersFault(error)) metrics.blobStoreErrors.inc({ store: kind, operation });
      throw error;
    } finally {
      metrics.blobStoreDuration.observe({ store: kind, operation }, secondsSince(started));
    }
  }

  return Object.assign(Object.create(store) as BlobStore, {
    put(body, options) {
      let refused: unknown;
      const validateHead = options.validateHead;
      const checked = validateHead
        ? {
            ...options,
            validateHead(firstBytes: Uint8Array) {
              try {
                validateHead(firstBytes);
              } catch (error) {
                refused = error;
                throw error;
              }
            },
          }
        : options;
      return measure(
        'put',
        () => store.put(body, checked),
        (error) => error === refused || error instanceof BlobTooLargeError,
      );
    },
    open: (sha256) => measure('open', () => store.open(sha256)),
    async *list() {
      const started = performance.now();
      try {
        yield* store.list();
      } catch (error) {
        metrics.blobStoreErrors.inc({ store: kind, operation: 'list' });
        throw error;
      } finally {
        metrics.blobStoreDuration.observe({ store: kind, operation: 'list' }, secondsSince(started));
      }
    },
    delete: (sha256) => measure('delete', () => store.delete(sha256)),
  } satisfies Partial<BlobStore>);
}

/**
 * The SMTP relay, each hand-over counted by outcome: a mail the relay did not accept (unreachable, refused,
 * timed out) is a failure; the arrival queue tries it again later, and the alert watches the share that fails.
 */
export function measuredMailer(mailer: Mailer, metrics: Metrics): Mailer {
  return {
    async send(mail) {
      try {
        await mailer.send(mail);
      } catch (error) {
        metrics.smtpSends.inc({ outcome: 'failed' });
        throw error;
      }
      metrics.smtpSends.inc({ outcome: 'sent' });
    },
    close: () => mailer.close(),
  };
}
