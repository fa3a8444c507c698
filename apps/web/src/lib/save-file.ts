/**
 * Hands a file to the browser's downloads under `fileName`, as a click on a download link does. With `type`
 * the file is retyped first, so what the server labelled as something a browser shows (HTML, SVG) is saved
 * instead of opening as a page of this origin.
 */
export function saveFile(file: Blob, fileName: string, type?: string): void {
  const url = URL.createObjectURL(type ? file.slice(0, file.size, type) : file);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    // In the document while clicked: some browsers ignore a click on a link that is not.
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoked after the click has been handled: the download keeps its own reference.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
