// Label, annotation and resource-name prefixes of the GPUStack operator (pkg/nodefeature,
// systemmeta), written once so every stage spells them the same way.
#pragma once

#include <string_view>

namespace chaintwin::model::keys {

inline constexpr std::string_view kManaged = "gpustack.ai/managed";
inline constexpr std::string_view kFeaturePrefix = "feature.gpustack.ai/";
inline constexpr std::string_view kAcceleratable = "feature.gpustack.ai/acceleratable";
inline constexpr std::string_view kCpuOnly = "feature.gpustack.ai/cpu-only";
inline constexpr std::string_view kCpuNameAnnotation = "feature.gpustack.ai/cpu-name";
inline constexpr std::string_view kAcceleratablePrefix = "acceleratable.feature.gpustack.ai/";
inline constexpr std::string_view kGeneralPrefix = "general.feature.gpustack.ai/";
inline constexpr std::string_view kCpuVendorLabel = "feature.node.kubernetes.io/cpu-model.vendor_id";
inline constexpr std::string_view kCpuFamilyLabel = "feature.node.kubernetes.io/cpu-model.family";
inline constexpr std::string_view kCpuIdLabel = "feature.node.kubernetes.io/cpu-model.id";
inline constexpr std::string_view kOs = "kubernetes.io/os";
inline constexpr std::string_view kArch = "kubernetes.io/arch";
inline constexpr std::string_view kHostname = "kubernetes.io/hostname";
inline constexpr std::string_view kTopologyProfile = "topology.gpustack.ai/profile";
inline constexpr std::string_view kResourceType = "resource.gpustack.ai/type";
// Values of resource.gpustack.ai/type on the objects the operator owns.
inline constexpr std::string_view kResourceFlavorResType = "nodes";
inline constexpr std::string_view kClusterQueueResType = "instancetypes";
inline constexpr std::string_view kTopologyResType = "topology";
inline constexpr std::string_view kNotePrefix = "note.gpustack.ai/";
inline constexpr std::string_view kScheduleQueue = "schedule.gpustack.ai/queue";
inline constexpr std::string_view kScheduleQueueEntrance = "schedule.gpustack.ai/queue-entrance";
inline constexpr std::string_view kScheduleDerivedFromNode = "schedule.gpustack.ai/derived-from-node";
inline constexpr std::string_view kEmptyPlanHold = "topology.gpustack.ai/empty-plan-hold";
inline constexpr std::string_view kTasQueue = "topology.gpustack.ai/tas-queue";
inline constexpr std::string_view kMigrationPhase = "topology.gpustack.ai/migration-phase";
inline constexpr std::string_view kMigrationStopPolicy = "topology.gpustack.ai/migration-stop-policy";
inline constexpr std::string_view kSystemNamespace = "gpustack-system";  // the operator's own namespace
inline constexpr std::string_view kControlledFinalizer = "gpustack.ai/controlled";
inline constexpr std::string_view kCreditsPrefix = "credits.gpustack.ai/";
inline constexpr std::string_view kVisibilityPrefix = "device.gpustack.ai/";
inline constexpr std::string_view kFitSlicedMaxFreeUnitsPrefix = "sliced-max-free-units.fit.gpustack.ai/";
inline constexpr std::string_view kFitSharedFreeCardsPrefix = "shared-free-cards.fit.gpustack.ai/";

}  // namespace chaintwin::model::keys
