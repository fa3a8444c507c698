/** The admin users screen (issue 4). */
export default function AdminUsersScreen() {
  return (
    <main className="container py-4">
      <h1>Users</h1>
    </main>
  );
}
