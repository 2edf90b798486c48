package io.ferry.profiles.repository;

import io.ferry.profiles.model.ProfileSettings;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** One version of a profile: its own settings (before include resolution) and what changed. */
@Entity
@Table(name = "profile_version")
@IdClass(ProfileVersion.Key.class)
public class ProfileVersion extends PanacheEntityBase {

    public static class Key implements Serializable {
        public String profile;
        public int version;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.version == version && Objects.equals(k.profile, profile);
        }

        @Override
        public int hashCode() {
            return Objects.hash(profile, version);
        }
    }

    @Id
    public String profile;

    @Id
    public int version;

    public String summary;

    @Column(name = "include_profile")
    public String includeProfile;

    @JdbcTypeCode(SqlTypes.JSON)
    public Map<String, String> sysctls = new TreeMap<>();

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "interface_settings")
    public Map<String, Integer> interfaceSettings = new TreeMap<>();

    /** setting -> {from, to}; null values mean absent. */
    @JdbcTypeCode(SqlTypes.JSON)
    public Map<String, Map<String, String>> diff = new TreeMap<>();

    public String comment;

    @Column(name = "created_at")
    public OffsetDateTime createdAt;

    @Column(name = "created_by")
    public String createdBy;

    public ProfileSettings settings() {
        return new ProfileSettings(sysctls, interfaceSettings);
    }
}
