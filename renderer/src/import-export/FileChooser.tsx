/**
 * A card's "Choose … file" button: main's own file dialog in Electron, the page's file input in the
 * browser host (which has no dialog of main's). The workbook's and the readings' cards both use it.
 */
import { useRef } from 'react';
import { useFileDialogs } from '../bridge/browser-files';

export function FileChooser(props: {
  testId: string;
  label: string;
  busy: boolean;
  disabled: boolean;
  /** The file input's `accept` (browser host). */
  accept: string;
  /** Without a file: main asks with its dialog. */
  choose(file?: File): Promise<void>;
}) {
  const { testId, label, busy, disabled, accept, choose } = props;
  const fileDialogs = useFileDialogs();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="primary"
        data-testid={`${testId}-choose`}
        disabled={disabled}
        onClick={() => (fileDialogs === false ? input.current?.click() : void choose())}
      >
        {busy ? 'Reading…' : label}
      </button>
      {fileDialogs === false && (
        <input
          ref={input}
          type="file"
          hidden
          accept={accept}
          data-testid={`${testId}-file-input`}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            // Cleared so that choosing the same file again (after editing it) reads it again.
            e.currentTarget.value = '';
            if (file) void choose(file);
          }}
        />
      )}
    </>
  );
}
