import Card from 'react-bootstrap/Card';

export function NotFoundScreen() {
  return (
    <main className="container py-5" style={{ maxWidth: 560 }}>
      <Card border="danger">
        <Card.Header as="h1" className="h4 bg-danger text-white">
          Error
        </Card.Header>
        <Card.Body>
          <Card.Text>Page Not Found</Card.Text>
        </Card.Body>
      </Card>
    </main>
  );
}
