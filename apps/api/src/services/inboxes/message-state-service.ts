import type { Db, InboxRow } from '@tempbox/db'
import type { MessageReadState } from '@tempbox/types'
import { deleteMessage, inboxCounts, setMessageRead } from '../../repositories/message-repository.js'
import { deleteIfBurnsOnRead } from '../../repositories/burn-repository.js'
import type { Peers } from '../../service-state/shared-state.js'
import type { MailWatcher } from '../messages/mail-watcher.js'
import type { InboxListingService } from './inbox-listing-service.js'
import type { InboxService } from './inbox-service.js'
import type { MessageReadService } from './message-read-service.js'
import { messageNotFound } from './not-found.js'

/**
 * What a reader changes of a message: its read state and its deletion. Neither leaves a new message for the watcher
 * to see, so the other API processes of this host are told through `peers`, and told here of theirs.
 */
export class MessageStateService {
  constructor(
    private readonly db: Db,
    private readonly watcher: MailWatcher,
    private readonly inboxes: InboxService,
    private readonly listings: InboxListingService,
    private readonly reads: MessageReadService,
    private readonly peers: Peers,
  ) {
    peers.onMessageDeleted((inboxId, id) => this.messageGone(inboxId, id))
    peers.onReadStateChanged((inboxId) => listings.readStateChanged(inboxId))
  }

  async deleteMessage(inbox: InboxRow, id: number): Promise<void> {
    if (!(await deleteMessage(this.db, inbox.id, id))) throw messageNotFound()
    this.messageGone(inbox.id, id)
    await this.peers.messageDeleted(inbox.id, id)
  }

  /**
   * Marks a message read or unread in this inbox only (another inbox holding the same mail keeps its own state).
   * Reading a message never marks it: GET stays safe for API clients, prefetchers and waits, and the web app says
   * when its reader opened one. Setting the state it already has changes nothing, so listings keep their ETag.
   */
  async setRead(inbox: InboxRow, id: number, read: boolean): Promise<MessageReadState> {
    const result = await setMessageRead(this.db, inbox.id, id, read, Date.now())
    if (!result.found) throw messageNotFound()
    // Any read of a burn-on-read inbox is its first one: the inbox does not outlive it.
    if (read && (await deleteIfBurnsOnRead(this.db, inbox.id))) {
      await this.inboxes.inboxDeleted(inbox)
      return { id: String(id), read, unread: 0, burned: true }
    }
    if (result.changed) {
      this.listings.readStateChanged(inbox.id)
      await this.peers.readStateChanged(inbox.id)
    }
    return { id: String(id), read, unread: (await inboxCounts(this.db, inbox.id)).unread }
  }

  private messageGone(inboxId: number, id: number): void {
    this.reads.forgetView(id)
    this.watcher.messageDeleted(inboxId, id)
  }
}
