package io.ferry.scheduler.queue;

/**
 * The queue of one (link, VO, activity) at one moment: files waiting to be prepared, being prepared or prepared,
 * ready to start (prepared recently enough), and running.
 */
public record QueueSnapshot(String sourceSe, String destSe, String vo, String activity, int waiting, int preparing,
                            int ready, int active, int staging) {

    public String link() {
        return sourceSe + " -> " + destSe;
    }
}
