import { useRuntimeConfig } from '@/lib/runtime-config';

/** The configured support e-mail and phone as links, beside a "Please contact …" message; nothing if neither is set. */
export function SupportLinks({ className }: { className?: string }) {
  const { supportContact, support } = useRuntimeConfig();
  if (!support?.email && !support?.phone) return null;
  return (
    <p className={className}>
      Contact {supportContact}:{' '}
      {support.email && (
        <a href={`mailto:${support.email}`} className="text-nowrap">
          {support.email}
        </a>
      )}
      {support.email && support.phone && ' · '}
      {support.phone && (
        <a href={`tel:${support.phone.replace(/[^\d+]/g, '')}`} className="text-nowrap">
          {support.phone}
        </a>
      )}
    </p>
  );
}
