import { Link } from '@/lib/router';
import { useAccount } from '@/lib/account-query';
import { paths } from '@/lib/paths';

const Separator = () => (
  <span className="text-white-50" aria-hidden="true">
    |
  </span>
);

/**
 * The links a role adds to the header, each with its separator, once the account lookup says so: the spec's
 * admin link, and for the finance role the Invoices page, before it.
 */
export default function AdminLink({ email }: { email: string }) {
  const account = useAccount(email);
  return (
    <>
      {account.data?.finance === true && (
        <>
          <Link to={paths.finance} className="header-admin-link link-light text-nowrap">
            Invoices
          </Link>
          <Separator />
        </>
      )}
      {account.data?.admin === true && (
        <>
          <Link to={paths.admin} className="header-admin-link link-light text-nowrap">
            Admin Page
          </Link>
          <Separator />
        </>
      )}
    </>
  );
}
