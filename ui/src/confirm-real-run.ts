/**
 * Asks before a run or a test against a real model (it spends the developer's keys and money). The
 * `<dialog>` is modal: focus moves into it, Escape cancels, and focus returns where it was.
 */
export function confirmRealRun(what: string): Promise<boolean> {
  const dialog = document.getElementById("confirm") as HTMLDialogElement;
  const text = document.getElementById("confirm-text") as HTMLElement;
  const yes = document.getElementById("confirm-yes") as HTMLButtonElement;
  const no = document.getElementById("confirm-no") as HTMLButtonElement;
  text.textContent = `${what} calls the real model with the API keys in sapling dev's environment. Turn on "Use the mock" to rehearse without them.`;
  return new Promise((resolve) => {
    const finish = (answer: boolean) => {
      yes.removeEventListener("click", onYes);
      no.removeEventListener("click", onNo);
      dialog.removeEventListener("cancel", onNo);
      dialog.close();
      resolve(answer);
    };
    const onYes = () => finish(true);
    const onNo = () => finish(false);
    yes.addEventListener("click", onYes);
    no.addEventListener("click", onNo);
    dialog.addEventListener("cancel", onNo);
    dialog.showModal();
    no.focus();
  });
}
