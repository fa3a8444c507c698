import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveFile } from './save-file';

describe('saveFile', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('clicks a download link for the file under its name, retyped when asked, and frees its URL after', async () => {
    vi.useFakeTimers();
    const saved: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => (saved.push(blob as Blob), 'blob:test/1'));
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: { name: string; href: string; inDocument: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ name: this.download, href: this.href, inDocument: this.isConnected });
    });

    saveFile(new Blob(['<x/>'], { type: 'text/html' }), 'PC1.xml', 'application/xml');

    expect(clicked).toEqual([{ name: 'PC1.xml', href: 'blob:test/1', inDocument: true }]);
    expect(saved[0]!.type).toBe('application/xml');
    expect(await saved[0]!.text()).toBe('<x/>');
    expect(document.querySelector('a[download]')).toBeNull();
    expect(revoke).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(revoke).toHaveBeenCalledWith('blob:test/1');

    saveFile(new Blob(['a,b'], { type: 'text/csv' }), 'users.csv');
    expect(saved[1]!.type).toBe('text/csv');
  });
});
