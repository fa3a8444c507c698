import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { lazyWithPreload } from './lazy-with-preload';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('lazyWithPreload', () => {
  it('renders code that was preloaded at once, without its fallback', async () => {
    const load = vi.fn(async () => ({ default: Greeting }));
    const Preloaded = lazyWithPreload(load);
    await Preloaded.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Preloaded name="Ada" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Ada')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows the fallback while code that was not preloaded arrives, and loads it once', async () => {
    let arrive!: () => void;
    const load = vi.fn(
      () => new Promise<{ default: typeof Greeting }>((resolve) => (arrive = () => resolve({ default: Greeting }))),
    );
    const Late = lazyWithPreload(load);
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Late name="Grace" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    void Late.preload();
    await act(async () => arrive());
    expect(await screen.findByText('Hello Grace')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
