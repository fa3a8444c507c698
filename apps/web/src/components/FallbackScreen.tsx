/** What a person sees after an unexpected render error (the error itself goes to error reporting). */
export function FallbackScreen() {
  return (
    <main className="container py-5 text-center" role="alert">
      <h1 className="h3">Oops! Something went wrong.</h1>
      <p className="text-body-secondary">
        <a href="/">Reload the portal</a>
      </p>
    </main>
  );
}
