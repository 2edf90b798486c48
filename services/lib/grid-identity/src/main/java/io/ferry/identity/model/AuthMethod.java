package io.ferry.identity.model;

/** How the caller proved who it is, in the words FTS3's {@code /whoami} uses for {@code method}. */
public enum AuthMethod {
    OAUTH2("oauth2"),
    CERTIFICATE("certificate");

    private final String fts3Name;

    AuthMethod(String fts3Name) {
        this.fts3Name = fts3Name;
    }

    public String fts3Name() {
        return fts3Name;
    }
}
