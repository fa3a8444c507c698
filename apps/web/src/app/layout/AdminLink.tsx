import { Link } from 'react-router';
import { useAccount } from '@/lib/account-query';
import { paths } from '@/lib/paths';

/** The admin link and its separator, once the account lookup says admin. */
export default function AdminLink({ email }: { email: string }) {
  const account = useAccount(email);
  if (account.data?.admin !== true) return null;
  return (
    <>
      <Link to={paths.admin} className="header-admin-link link-light text-nowrap">
        Admin Page
      </Link>
      <span className="text-white-50" aria-hidden="true">
        |
      </span>
    </>
  );
}
