/**
 * The inspector's scenario control: pick a scenario file and its builders are applied to this tenant
 * (`POST /__mock/scenario`), all or nothing; a refused file's every error is shown with its path. JSON files only:
 * a YAML parser would triple the page's size, and `--scenario FILE` reads YAML.
 */
import { act } from './api';
import { FileButton, useActions } from './ui';

/** The button and its file picker. */
export function LoadScenario() {
  const { run } = useActions();
  return (
    <FileButton
      label="Load scenario…"
      accept="application/json,.json"
      name="Scenario file to load"
      onFile={(fileName, text) =>
        run(
          'Scenario',
          () => {
            if (!fileName.endsWith('.json'))
              throw new Error(
                `${fileName}: the inspector loads JSON scenarios; start the server with --scenario for YAML`,
              );
            // The mock checks the file whole and names each error's path.
            return act<{ results: unknown[] }>('/scenario', text);
          },
          (result) => `Loaded ${fileName}: ${result.results.length} builder(s) applied`,
        )
      }
    />
  );
}
