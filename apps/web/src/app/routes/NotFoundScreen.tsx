import { usePageTitle } from '@/hooks/use-page-title';
import Card from 'react-bootstrap/Card';
import { Link } from '@/lib/router';
import { paths } from '@/lib/paths';

export function NotFoundScreen() {
  usePageTitle('Page Not Found');
  return (
    <main className="container py-5" style={{ maxWidth: 560 }}>
      <Card border="danger">
        <Card.Header as="h1" className="h4 bg-danger text-white">
          Error
        </Card.Header>
        <Card.Body>
          <Card.Text>Page Not Found</Card.Text>
          {/* A way back from a mistyped or outdated address. */}
          <Link to={paths.root} className="btn btn-primary">
            Go to the portal home
          </Link>
        </Card.Body>
      </Card>
    </main>
  );
}
