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

describe('lazyWithPreload after a failed download', () => {
  const failed = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
  function StandIn({ name }: { name: string }) {
    return <p>Stand-in for {name}</p>;
  }

  it('asks again when a render needs the code that a preload could not get', async () => {
    const load = vi.fn().mockImplementationOnce(failed).mockResolvedValue({ default: Greeting });
    const Retried = lazyWithPreload<{ name: string }>(load);
    await expect(Retried.preload()).rejects.toThrow('Failed to fetch');
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Retried name="Ada" />
      </Suspense>,
    );
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shows its stand-in when the code cannot be had when needed', async () => {
    const load = vi.fn(failed);
    const WithStandIn = lazyWithPreload<{ name: string }>(load, StandIn);
    await expect(WithStandIn.preload()).rejects.toThrow('Failed to fetch');
    render(
      <Suspense fallback={<p>Loading</p>}>
        <WithStandIn name="Grace" />
      </Suspense>,
    );
    expect(await screen.findByText('Stand-in for Grace')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
