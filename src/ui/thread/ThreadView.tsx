// The conversation on screen: every turn of the shown path, its versions (‹ 2/3 ›), the
// search query a follow-up was rewritten into (editable), and the full answer of the turn
// being viewed; earlier turns show their answer text and open in full on request.
import { useState, type ReactNode } from 'react';
import { activePath } from '../../core/conversation';
import type { Conversation, ConversationState } from '../../app/wiring/conversation';
import type { RankSettings } from '../../core/types';
import { TurnItem } from './TurnItem';

export function ThreadView(props: {
  state: ConversationState;
  conversation: Conversation;
  busy: boolean;
  viewedAnswer: ReactNode;
  /** The weights of now, which pick a past answer's segments. */
  rank: RankSettings;
}) {
  const { state } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const thread = state.thread;
  if (!thread || thread.roots.length === 0) return <>{props.viewedAnswer}</>;
  return (
    <ol className="turns" aria-label="This conversation" data-testid="turns">
      {activePath(thread).map((turn, i) => (
        <TurnItem
          key={turn.id}
          thread={thread}
          turn={turn}
          n={i + 1}
          viewed={turn.id === state.viewed}
          rewriting={turn.id === state.running && state.rewriting}
          busy={props.busy}
          editing={editing === turn.id}
          onEditing={(on) => setEditing(on ? turn.id : null)}
          conversation={props.conversation}
          viewedAnswer={props.viewedAnswer}
          rank={props.rank}
        />
      ))}
    </ol>
  );
}
