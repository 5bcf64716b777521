/** A native modal <dialog> driven by the UI store's one `dialog` name. */
import { useEffect, useEffectEvent, useRef } from 'react';
import { useUi } from '../store/ui';

export type DialogName = NonNullable<ReturnType<typeof useUi.getState>['dialog']>;

/**
 * Shows the dialog modal while the store names it and closes it when the store moves on. `onOpen`
 * runs each time it opens, after showModal(), so it can reset the form and move focus.
 */
export function useModalDialog(name: DialogName, onOpen?: () => void) {
  const open = useUi((s) => s.dialog === name);
  const ref = useRef<HTMLDialogElement>(null);
  // An effect event: the latest onOpen (and the state it reads), without reopening when it changes.
  const opened = useEffectEvent(() => onOpen?.());
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      opened();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  // The native close event comes late: by then another dialog may have taken over, so only this one's own state is reset.
  const close = () => {
    if (useUi.getState().dialog === name) useUi.setState({ dialog: null });
  };
  return { ref, open, close };
}
