import { vi } from 'vitest';

export interface CapturedDownload {
  filename: string;
  text: () => Promise<string>;
}

/** jsdom's Blob has no text(); its FileReader reads one. */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });
}

/**
 * Catches the files the page hands to the browser (a Blob behind an object URL, a link clicked):
 * jsdom neither makes object URLs nor downloads. The URL stub is undone by the setup's unstubAllGlobals.
 */
export function captureDownloads(): CapturedDownload[] {
  const blobs = new Map<string, Blob>();
  const downloads: CapturedDownload[] = [];
  vi.stubGlobal('URL', {
    ...URL,
    createObjectURL: (blob: Blob) => {
      const url = `blob:${blobs.size}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL: (url: string) => blobs.delete(url),
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementationOnce(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.getAttribute('href') ?? '');
    if (blob) downloads.push({ filename: this.download, text: () => blobText(blob) });
  });
  return downloads;
}
