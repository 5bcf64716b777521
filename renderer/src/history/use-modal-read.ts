import { useEffect, useRef, useState, type RefObject } from 'react';
import { errorMessage } from '../../../shared/errors';

/**
 * A modal dialog shown while `target` is set, its content read from main each time it opens (the
 * cell history and an import's record): an answer that arrives after the target changed or the
 * dialog closed is dropped, so a slow read never shows another cell's history.
 */
export function useModalRead<T, R>(
  target: T | null,
  read: (target: T) => Promise<R>,
): { ref: RefObject<HTMLDialogElement | null>; result: R | null; error: string | null } {
  const ref = useRef<HTMLDialogElement>(null);
  const [result, setResult] = useState<R | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!target) {
      if (dialog.open) dialog.close();
      return;
    }
    if (!dialog.open) dialog.showModal();
    let live = true;
    setResult(null);
    setError(null);
    read(target).then(
      (found) => live && setResult(found),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
    // The target alone decides a new read (`read` is made anew on each render by a caller).
  }, [target]);
  return { ref, result, error };
}
