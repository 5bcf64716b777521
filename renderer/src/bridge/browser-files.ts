/**
 * Files in the browser host, which has no native dialogs: a file chosen in the page's file input is
 * uploaded (main keeps it under an id, as for a dialog's pick) and an export main wrote is fetched
 * once and handed to the browser as a download. Both requests carry the bridge's secret header.
 */
import { useEffect, useState } from 'react';
import type { AppInfo, PickedFile } from '../../../shared/bridge/types';
import { unwrapEnvelope } from '../../../shared/bridge/envelope';
import { downloadRoute, uploadRoute } from '../../../shared/bridge/browser-host-files';
import { bridgeSecretHeader, bridgeSecretStorageKey } from '../../../shared/bridge/browser-host-secret';
import { bridge } from '.';

let info: Promise<AppInfo> | undefined;

/** The host's app.info, asked once. */
export function appInfo(): Promise<AppInfo> {
  info ??= bridge.methods['app.info']({});
  return info;
}

/** Whether main opens native dialogs (null until known): false in the browser host. */
export function useFileDialogs(): boolean | null {
  const [dialogs, setDialogs] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    void appInfo().then(
      (answer) => live && setDialogs(answer.fileDialogs),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return dialogs;
}

const secretHeaders = (): Record<string, string> => ({
  [bridgeSecretHeader]: window.sessionStorage.getItem(bridgeSecretStorageKey) ?? '',
});

/** Sends a chosen file's bytes to main; answers like files.pick. */
export async function uploadFile(file: File): Promise<PickedFile> {
  const response = await fetch(`${uploadRoute}?name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    headers: { ...secretHeaders(), 'Content-Type': 'application/octet-stream' },
    body: file,
    credentials: 'same-origin',
  });
  if (response.status === 413) throw new Error('That file is larger than 40 MB.');
  return unwrapEnvelope(await response.json()) as PickedFile;
}

/** Fetches the export main offered under `downloadId` and saves it as the browser's download. */
export async function saveDownload(downloadId: string, fileName: string): Promise<void> {
  const response = await fetch(`${downloadRoute}/${encodeURIComponent(downloadId)}`, {
    headers: secretHeaders(),
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`The export could not be downloaded (${response.status}).`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once the click's task ends.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
