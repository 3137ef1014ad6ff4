// The way back from a detail shown instead of its list (one pane): Escape and Alt+Left do the
// same, which the workspace handles; the button names them for screen readers.
export function BackButton(props: {
  onBack(): void;
  label: string;
  title: string;
  testId: string;
}) {
  return (
    <button
      type="button"
      className="secondary back-button"
      onClick={props.onBack}
      aria-keyshortcuts="Escape Alt+ArrowLeft"
      title={props.title}
      data-testid={props.testId}
    >
      ← {props.label}
    </button>
  );
}
