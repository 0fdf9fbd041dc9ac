import { normaliserOf } from '../../plugins/bounce-classifier/classify.ts';
import { normalise } from '../../plugins/bounce-model/normalise.ts';

/**
 * A reply as the classifier hands it to the models: the API plugin's own `normaliserOf` over the model's `normalise`
 * (a reply that is only a code, or a code with links and ids, first given its status's description and its help
 * link's key). Training, calibration and the gate read replies this way too: trained on the bare form, Gmail's last
 * line `535 5.7.8 <link>?p=BadCredentials <id> - gsmtp` taught the link and `gsmtp` alone to mean a failed login, and
 * Gmail's spam line, served with its key's words, flipped to a protocol error.
 */
export const servedText: (reply: string) => string = normaliserOf({ normalise });
