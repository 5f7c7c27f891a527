import { isApiEnabled, setApiEnabled } from '@doppel/core/settings';
import type { Command, Result } from '../command';

function state(enabled: boolean): Result {
  return {
    json: { api_enabled: enabled },
    text: enabled
      ? 'The API is enabled.'
      : 'The API is disabled: every /api/v1 request is answered with 503 api_temporarily_disabled.',
  };
}

function switchTo(enabled: boolean): Command {
  return {
    name: enabled ? 'api enable' : 'api disable',
    synopsis: '',
    summary: enabled ? 'Switch the public API back on' : 'Switch the public API off for every key (503 until enabled)',
    options: [],
    prepare: () => async ({ db }) => {
      await setApiEnabled(db, enabled);
      return state(enabled);
    },
  };
}

export const apiDisable = switchTo(false);
export const apiEnable = switchTo(true);

export const apiStatus: Command = {
  name: 'api status',
  synopsis: '',
  summary: 'Show whether the public API is switched on',
  options: [],
  prepare: () => async ({ db }) => state(await isApiEnabled(db)),
};
